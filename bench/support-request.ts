/** The support request the write benchmarks post: the same body everywhere, so their figures compare. */
export const SUPPORT_REQUEST_BODY = JSON.stringify({
  businessName: 'Potomac Benchmark Co',
  contactName: 'Bench Writer',
  email: 'bench@example.com',
  phone: '(703) 555-0100',
  address: '1 Wilson Blvd, Arlington, VA',
  serviceCategory: 'networking',
  issueDescription: 'The office Wi-Fi drops every afternoon around three o’clock.',
});
