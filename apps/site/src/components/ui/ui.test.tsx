import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Alert } from './alert';
import { Button } from './button';
import { Checkbox } from './checkbox';
import { Label } from './label';
import { Progress } from './progress';
import { Tabs, TabsContent, TabsList, TabsTrigger } from './tabs';

describe('UI primitives', () => {
  it('Button never submits a form unless asked to', async () => {
    const submit = vi.fn((e: SubmitEvent) => e.preventDefault());
    render(
      <form onSubmit={(e) => submit(e.nativeEvent as SubmitEvent)}>
        <Button>Plain</Button>
        <Button type="submit">Send</Button>
      </form>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Plain' }));
    expect(submit).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(submit).toHaveBeenCalledTimes(1);
  });

  it('Alert is announced as an alert when destructive and as a status otherwise', () => {
    render(
      <>
        <Alert>Saved</Alert>
        <Alert variant="destructive">Broken</Alert>
      </>,
    );
    expect(screen.getByRole('status')).toHaveTextContent('Saved');
    expect(screen.getByRole('alert')).toHaveTextContent('Broken');
  });

  it('Progress exposes its value; Checkbox is labelled and toggles', async () => {
    const onChange = vi.fn();
    render(
      <>
        <Progress value={40} aria-label="Upload" />
        <Label>
          <Checkbox onCheckedChange={onChange} /> Pick me
        </Label>
      </>,
    );
    expect(screen.getByRole('progressbar', { name: 'Upload' })).toHaveAttribute('aria-valuenow', '40');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Pick me' }));
    expect(onChange).toHaveBeenCalledWith(true);
  });

  it('Tabs move with the arrow keys and show the chosen panel', async () => {
    render(
      <Tabs defaultValue="a">
        <TabsList aria-label="Steps">
          <TabsTrigger value="a">A</TabsTrigger>
          <TabsTrigger value="b">B</TabsTrigger>
        </TabsList>
        <TabsContent value="a">Panel A</TabsContent>
        <TabsContent value="b">Panel B</TabsContent>
      </Tabs>,
    );
    await userEvent.click(screen.getByRole('tab', { name: 'A' }));
    await userEvent.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'B' })).toHaveFocus();
    expect(screen.getByRole('tabpanel')).toHaveTextContent('Panel B');
  });

  it('a tab pressed with the pointer hides its focus ring until a key is used on it', async () => {
    render(
      <Tabs defaultValue="a">
        <TabsList aria-label="Steps">
          <TabsTrigger value="a">A</TabsTrigger>
          <TabsTrigger value="b">B</TabsTrigger>
        </TabsList>
        <TabsContent value="a">Panel A</TabsContent>
        <TabsContent value="b">Panel B</TabsContent>
      </Tabs>,
    );
    const a = screen.getByRole('tab', { name: 'A' });
    const b = screen.getByRole('tab', { name: 'B' });
    // The ring's rule: `focus-visible` outlines, except on a tab marked as pressed with the pointer.
    expect(b).toHaveClass('focus-visible:outline-2', 'data-[pointer-focus]:focus-visible:outline-none');
    await userEvent.click(b);
    expect(b).toHaveFocus();
    expect(b).toHaveAttribute('data-pointer-focus');
    await userEvent.keyboard('{ArrowLeft}');
    expect(a).toHaveFocus();
    expect(a).not.toHaveAttribute('data-pointer-focus');
    expect(b).not.toHaveAttribute('data-pointer-focus');
  });
});
