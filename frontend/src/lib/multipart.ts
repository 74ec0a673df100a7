/**
 * A request body of text fields and files: JSON when there are no files, else multipart form data with the
 * fields first (the server reads them before the files' bytes) and every file under `fileField`.
 */
export function jsonOrMultipart(
  fields: Readonly<Record<string, string>>,
  files: readonly File[],
  fileField: string,
): Readonly<Record<string, string>> | FormData {
  if (files.length === 0) return fields;
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const file of files) form.append(fileField, file, file.name);
  return form;
}
