import { Tabs as TabsPrimitive } from 'radix-ui';
import { useState, type ComponentProps } from 'react';
import { cn } from '@/lib/utils';

/** Radix tabs: arrow keys move between triggers, each panel is labelled by its trigger. */
export function Tabs({ className, ...props }: ComponentProps<typeof TabsPrimitive.Root>) {
  return <TabsPrimitive.Root className={cn('flex flex-col gap-4', className)} {...props} />;
}

export function TabsList({ className, ...props }: ComponentProps<typeof TabsPrimitive.List>) {
  return (
    <TabsPrimitive.List
      className={cn(
        'inline-flex h-9 w-fit items-center rounded-lg bg-muted p-1 text-muted-foreground',
        className,
      )}
      {...props}
    />
  );
}

/**
 * Radix focuses a tab from script when it is pressed, which Chromium's :focus-visible takes for
 * keyboard focus: a pointer press marks the tab (`data-pointer-focus`) so its ring stays hidden
 * until a key is used on it; arrow keys move focus to an unmarked tab, which shows the ring.
 */
export function TabsTrigger({
  className,
  onPointerDown,
  onKeyDown,
  onBlur,
  ...props
}: ComponentProps<typeof TabsPrimitive.Trigger>) {
  const [pointerFocus, setPointerFocus] = useState(false);
  return (
    <TabsPrimitive.Trigger
      data-pointer-focus={pointerFocus ? '' : undefined}
      onPointerDown={(event) => {
        onPointerDown?.(event);
        setPointerFocus(true);
      }}
      onKeyDown={(event) => {
        onKeyDown?.(event);
        setPointerFocus(false);
      }}
      onBlur={(event) => {
        onBlur?.(event);
        setPointerFocus(false);
      }}
      className={cn(
        'inline-flex h-full flex-1 items-center justify-center gap-1.5 rounded-md px-3 text-sm font-medium whitespace-nowrap',
        'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
        'data-[pointer-focus]:focus-visible:outline-none',
        'disabled:pointer-events-none disabled:opacity-50',
        'data-[state=active]:bg-background data-[state=active]:text-foreground data-[state=active]:shadow-sm',
        className,
      )}
      {...props}
    />
  );
}

export function TabsContent({ className, ...props }: ComponentProps<typeof TabsPrimitive.Content>) {
  return (
    <TabsPrimitive.Content
      className={cn('flex-1 focus-visible:outline-2 focus-visible:outline-ring', className)}
      {...props}
    />
  );
}
