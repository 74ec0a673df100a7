import { SERVICE_CATEGORIES } from '@ppr/contracts';

/** A ticket stores the category id; people read its name (an unknown value is shown as it is). */
export function categoryName(value: string): string {
  return SERVICE_CATEGORIES.find((category) => category.id === value)?.name ?? value;
}
