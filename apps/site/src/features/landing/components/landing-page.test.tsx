import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AssistantEntry } from '../assistants';
import { LandingPage } from './landing-page';

const assistant: AssistantEntry = {
  id: 'asst_x',
  name: 'Sales Engineer Assistant',
  title: 's a l e s e n g i n e e r',
  titleText: 'sales engineer',
  subtitle: 'Click the engage button on the left to start a conversation.',
  roles: ['client support', 'presentations', 'technical resource'],
  pageName: 'EDiscovery',
  filePath: 'apps/site/src/app/routes/ediscovery.tsx',
  background: { kind: 'image', src: '/se.svg' },
};

describe('LandingPage', () => {
  it('shows the title as the main heading, the subtitle and the roles in order', () => {
    render(<LandingPage assistant={assistant} />);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('s a l e s e n g i n e e r');
    expect(screen.getByText(assistant.subtitle)).toBeVisible();
    const roles = within(screen.getByRole('list', { name: 'Roles' })).getAllByRole('listitem');
    expect(roles.map((r) => r.textContent)).toEqual(assistant.roles);
  });

  it('sets each word of the title apart, with a wider gap than between its letters', () => {
    render(<LandingPage assistant={assistant} />);
    const words = screen.getAllByTestId('landing-title-word');
    expect(words.map((w) => w.textContent)).toEqual(['s a l e s', 'e n g i n e e r']);
    expect(words[0]).not.toHaveClass('ms-[0.75em]');
    expect(words[1]).toHaveClass('ms-[0.75em]');
  });

  it('names the title and the page by the word itself, not by its spaced letters', () => {
    render(<LandingPage assistant={assistant} />);
    expect(screen.getByRole('heading', { level: 1, name: 'sales engineer' })).toBeVisible();
    expect(screen.getByRole('main')).toHaveAccessibleName('sales engineer');
  });

  it('staggers the roles 0.1 s apart', () => {
    render(<LandingPage assistant={assistant} />);
    const roles = screen.getAllByRole('listitem');
    expect(roles.map((r) => r.style.animationDelay)).toEqual(['0.0s', '0.1s', '0.2s']);
  });

  it('paints an image background under a dark overlay, darker still behind the title and subtitle', () => {
    render(<LandingPage assistant={assistant} />);
    expect(screen.getByTestId('landing-background').style.backgroundImage).toBe('url("/se.svg")');
    expect(screen.getByTestId('landing-overlay')).toHaveClass('bg-slate-950/60');
    // The pane shares a box with the title and subtitle (and not the roles), so it follows them.
    const scrim = screen.getByTestId('landing-scrim');
    expect(scrim).toHaveClass('landing-scrim');
    expect(scrim.parentElement).toContainElement(screen.getByRole('heading', { level: 1 }));
    expect(scrim.parentElement).toContainElement(screen.getByText(assistant.subtitle));
    expect(scrim.parentElement).not.toContainElement(screen.getByRole('list', { name: 'Roles' }));
  });

  it('paints a class-based background when the page has no image', () => {
    render(
      <LandingPage
        assistant={{ ...assistant, background: { kind: 'class', className: 'landing-bg-personal' } }}
      />,
    );
    const background = screen.getByTestId('landing-background');
    expect(background).toHaveClass('landing-bg-personal');
    expect(background.style.backgroundImage).toBe('');
  });
});
