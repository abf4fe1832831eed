import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { StarterNote } from './starter-note';

describe('StarterNote', () => {
  it('names the starter documents the provider holds and says how to replace them', () => {
    render(<StarterNote names={['refunds.md', 'starter-index.md', 'starter-ediscovery.md']} />);
    const note = screen.getByRole('note', { name: 'Starter documents' });
    expect(note).toHaveTextContent('starter-index.md, starter-ediscovery.md are starter documents');
    expect(note).toHaveTextContent('then delete the starter file here');
    expect(note).not.toHaveTextContent('refunds.md');
  });

  it('says nothing once none is left (or for a file that only looks like one)', () => {
    const { container } = render(<StarterNote names={['refunds.md', 'starter-pricing.md']} />);
    expect(container).toBeEmptyDOMElement();
  });
});
