import { describeListening } from './listening-address';

describe('describeListening', () => {
  it('names the address bound, and a link that opens it', () => {
    expect(describeListening('0.0.0.0', { address: '0.0.0.0', family: 'IPv4', port: 3500 })).toBe('0.0.0.0:3500 (http://localhost:3500)');
    expect(describeListening('::', { address: '::', family: 'IPv6', port: 3000 })).toBe('[::]:3000 (http://localhost:3000)');
    expect(describeListening('127.0.0.1', { address: '127.0.0.1', family: 'IPv4', port: 3000 })).toBe(
      '127.0.0.1:3000 (http://127.0.0.1:3000)',
    );
    expect(describeListening('::1', { address: '::1', family: 'IPv6', port: 3000 })).toBe('[::1]:3000 (http://[::1]:3000)');
  });

  it('keeps a host name for the link, and shows the port the server got', () => {
    expect(describeListening('localhost', { address: '::1', family: 'IPv6', port: 41234 })).toBe('[::1]:41234 (http://localhost:41234)');
  });
});
