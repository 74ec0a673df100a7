import { expect, type Page } from '@playwright/test';

export interface ApiAnswer<T> {
  readonly status: number;
  readonly data: T;
}

/**
 * A JSON call from a page, with the headers the site's own scripts send: the page's session, or with `bearer`
 * an integration key instead (and no cookies). An event stream never ends: only its status is read.
 */
export async function callApi<T = unknown>(
  page: Page,
  method: 'GET' | 'POST' | 'PATCH',
  url: string,
  body?: unknown,
  bearer?: string,
): Promise<ApiAnswer<T>> {
  return page.evaluate(
    async ({ method, url, body, bearer }) => {
      const response = await fetch(url, {
        method,
        credentials: bearer ? 'omit' : 'same-origin',
        headers: {
          Accept: 'application/json',
          'X-Requested-With': 'XMLHttpRequest',
          ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}),
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      if ((response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
        void response.body?.cancel();
        return { status: response.status, data: null as T };
      }
      const text = await response.text();
      return { status: response.status, data: (text ? JSON.parse(text) : null) as T };
    },
    { method, url, body, bearer },
  );
}

export interface SupportRequest {
  readonly businessName: string;
  readonly contactName: string;
  readonly email: string;
  readonly phone: string;
  readonly address: string;
  readonly serviceCategory: string;
  readonly issueDescription: string;
}

/**
 * A support request through the API from a page (the page's session, if any, decides whose ticket it is),
 * with `fields` over plausible defaults; answers the new ticket's id.
 */
export async function submitSupportRequest(page: Page, fields: Partial<SupportRequest> & Pick<SupportRequest, 'email'>): Promise<number> {
  const request: SupportRequest = {
    businessName: 'Arlington Dental Group',
    contactName: 'Jordan Reyes',
    phone: '7035550111',
    address: '1 Main St, Arlington, VA',
    serviceCategory: 'windows',
    issueDescription: 'The computer does not start after an update.',
    ...fields,
  };
  const { status, data } = await callApi<{ id: number }>(page, 'POST', '/api/support-request', request);
  expect(status).toBe(201);
  return data.id;
}
