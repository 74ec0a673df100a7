import { describe, expect, it } from 'vitest';
import { getPageMeta } from '../config/paths';
import { renderHeadTags } from './document-head';
import { openingHours, to24h } from './structured-data';

describe('structured data', () => {
  it('converts the business hours to schema.org form', () => {
    expect(to24h('9AM')).toBe('09:00');
    expect(to24h('12PM')).toBe('12:00');
    expect(to24h('9PM')).toBe('21:00');
    expect(openingHours()).toEqual(['Mo-Fr 09:00-21:00', 'Sa 10:00-21:00', 'Su 11:00-18:00']);
  });

  it('puts title, canonical, Open Graph and JSON-LD in an indexed page head, escaped', () => {
    const head = renderHeadTags(getPageMeta('/princegeorges/services/'), 'Potomac PC Repair');
    expect(head).toContain(`<title>IT Support Services in Prince George's County | Potomac PC Repair</title>`);
    expect(head).toContain('<link rel="canonical" href="https://www.potomacpcrepair.com/princegeorges/services" />');
    expect(head).toContain('<script type="application/ld+json">');
    const json = /<script type="application\/ld\+json">(.*)<\/script>/.exec(head)?.[1] ?? '';
    expect(JSON.parse(json)).toMatchObject({ '@type': 'ComputerRepair', telephone: '+17035550148' });
  });

  it('marks the not-found page noindex, without canonical or JSON-LD', () => {
    const head = renderHeadTags(getPageMeta('/nowhere'), 'Potomac PC Repair');
    expect(head).toContain('<meta name="robots" content="noindex" />');
    expect(head).not.toContain('canonical');
    expect(head).not.toContain('ld+json');
  });
});
