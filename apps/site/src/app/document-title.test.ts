import { describe, expect, it } from 'vitest';
import { documentTitle } from './document-title';

describe('documentTitle', () => {
  it("names each route before the owner's title; the home page is the owner's title alone", () => {
    expect(documentTitle('/', 'Engage')).toBe('Engage');
    expect(documentTitle('/admin', 'Engage')).toBe('Admin · Engage');
    expect(documentTitle('/ediscovery', 'Engage')).toBe('Sales Engineer · Engage');
    expect(documentTitle('/onboarding', 'Engage')).toBe('Project Onboarding · Engage');
    expect(documentTitle('/kb-import', 'Engage')).toBe('Knowledge Base Import · Engage');
    expect(documentTitle('/conversations', 'Engage')).toBe('Conversations · Engage');
    expect(documentTitle('/profile', 'Engage')).toBe('Profile · Engage');
    expect(documentTitle('/accept-invite', 'Acme')).toBe('Accept your invitation · Acme');
  });

  it('matches paths as the router does (case, trailing slash), and names an unknown one', () => {
    expect(documentTitle('/Admin/', 'Engage')).toBe('Admin · Engage');
    expect(documentTitle('/no/such/page', 'Engage')).toBe('Page not found · Engage');
  });
});
