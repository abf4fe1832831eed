import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { FormField } from './form-field';

describe('FormField', () => {
  it('names the input by its label and passes input props through', async () => {
    render(<FormField label="Email" type="email" autoComplete="email" required />);
    const input = screen.getByRole('textbox', { name: 'Email' });
    expect(input).toHaveAttribute('type', 'email');
    expect(input).toBeRequired();
    expect(input).not.toHaveAttribute('aria-invalid');
    expect(input).not.toHaveAttribute('aria-describedby');
    await userEvent.click(screen.getByText('Email'));
    expect(input).toHaveFocus();
  });

  it('keeps a given id', () => {
    render(<FormField label="Password" id="pw" type="password" />);
    expect(screen.getByLabelText('Password')).toHaveAttribute('id', 'pw');
  });

  it('describes the input by its hint and error, and marks it invalid on error', () => {
    render(<FormField label="Password" type="password" hint="At least 8 characters." error="Too short." />);
    const input = screen.getByLabelText('Password');
    expect(input).toHaveAccessibleDescription('At least 8 characters. Too short.');
    expect(input).toHaveAttribute('aria-invalid', 'true');
  });

  it("keeps the caller's aria-describedby and aria-invalid", () => {
    render(
      <>
        <FormField label="Email" aria-describedby="shared" aria-invalid={false} error="Required." />
        <p id="shared">Fill in both fields.</p>
      </>,
    );
    const input = screen.getByRole('textbox', { name: 'Email' });
    expect(input).toHaveAccessibleDescription('Fill in both fields. Required.');
    expect(input).toHaveAttribute('aria-invalid', 'false');
  });
});
