import { describe, expect, it } from 'vitest';
import { describeUserAgent } from './describe-user-agent';

const agents = {
  chromeMac:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36',
  edgeWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36 Edg/124.0',
  firefoxLinux: 'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
  safariIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  chromeAndroid:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36',
};

describe('describeUserAgent', () => {
  it('names the browser and the system', () => {
    expect(describeUserAgent(agents.chromeMac)).toBe('Chrome on macOS');
    expect(describeUserAgent(agents.edgeWindows)).toBe('Edge on Windows');
    expect(describeUserAgent(agents.firefoxLinux)).toBe('Firefox on Linux');
    expect(describeUserAgent(agents.safariIphone)).toBe('Safari on iOS');
    expect(describeUserAgent(agents.chromeAndroid)).toBe('Chrome on Android');
  });

  it('says what it can when only one of them is known', () => {
    expect(describeUserAgent('curl/8.5.0 (Windows)')).toBe('Windows');
    expect(describeUserAgent('Something Firefox/99')).toBe('Firefox');
  });

  it('shows the start of an agent it cannot read, and says so when there is none', () => {
    expect(describeUserAgent('curl/8.5.0')).toBe('curl/8.5.0');
    expect(describeUserAgent('x'.repeat(100))).toBe('x'.repeat(60));
    expect(describeUserAgent(null)).toBe('Unknown browser');
    expect(describeUserAgent('')).toBe('Unknown browser');
  });
});
