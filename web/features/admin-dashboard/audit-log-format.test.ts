import { describe, expect, it } from 'vitest';
import { auditActor, formatAuditAction, formatAuditDetails, shortEntityId } from './audit-log-format';

describe('formatAuditAction', () => {
  it('upper-cases the action with spaces for underscores', () => {
    expect(formatAuditAction('user_role_changed')).toBe('USER ROLE CHANGED');
    expect(formatAuditAction('login')).toBe('LOGIN');
  });
});

describe('shortEntityId', () => {
  it('shows the first 8 characters, and nothing for no entity', () => {
    expect(shortEntityId('0123456789abcdef')).toBe('01234567');
    expect(shortEntityId('abc')).toBe('abc');
    expect(shortEntityId(null)).toBe('');
  });
});

describe('auditActor', () => {
  it('names the user, or the start of their id when the name is gone', () => {
    expect(auditActor({ userId: 'u-1234567890', username: 'ada' })).toBe('ada');
    expect(auditActor({ userId: 'u-1234567890', username: null })).toBe('u-123456');
  });

  it('says System for a row no user caused', () => {
    expect(auditActor({ userId: null, username: null })).toBe('System');
  });
});

describe('formatAuditDetails', () => {
  it('is empty without details', () => {
    expect(formatAuditDetails(null)).toBe('');
    expect(formatAuditDetails({})).toBe('');
  });

  it('puts a from/to pair first as an arrow, whatever the key order', () => {
    expect(formatAuditDetails({ username: 'ada', to: 'manager', from: 'viewer' })).toBe(
      'viewer → manager · username: ada',
    );
  });

  it('lists a lone from or to as an ordinary field', () => {
    expect(formatAuditDetails({ from: 'viewer' })).toBe('from: viewer');
    expect(formatAuditDetails({ to: 'admin' })).toBe('to: admin');
  });

  it('writes non-text values as JSON and leaves out empty ones', () => {
    expect(formatAuditDetails({ count: 3, ok: true, tags: ['a', 'b'], none: null, blank: '' })).toBe(
      'count: 3 · ok: true · tags: ["a","b"]',
    );
  });

  it('cuts a long value at 60 characters with an ellipsis', () => {
    const text = formatAuditDetails({ name: 'x'.repeat(100) });
    expect(text).toBe(`name: ${'x'.repeat(59)}…`);
    expect(formatAuditDetails({ name: 'y'.repeat(60) })).toBe(`name: ${'y'.repeat(60)}`);
  });
});
