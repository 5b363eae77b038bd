import { ChevronDown } from 'lucide-react';
import { Accordion as AccordionPrimitive } from 'radix-ui';
import type { ComponentProps } from 'react';
import { cn } from '@/lib/cn';

/** Accordion is a list of sections that open and close (Radix Accordion: buttons with aria-expanded, regions). */
export const Accordion = AccordionPrimitive.Root;

/** AccordionItem is one section: a trigger and its content, divided from the next. */
export function AccordionItem({ className, ...props }: ComponentProps<typeof AccordionPrimitive.Item>) {
  return <AccordionPrimitive.Item className={cn('border-b last:border-b-0', className)} {...props} />;
}

/** AccordionTrigger is a section's heading button; its chevron turns when open. */
export function AccordionTrigger({ className, children, ...props }: ComponentProps<typeof AccordionPrimitive.Trigger>) {
  return (
    <AccordionPrimitive.Header className="flex">
      <AccordionPrimitive.Trigger
        className={cn(
          'flex min-w-0 flex-1 items-center gap-3 px-3 py-3 text-left text-sm font-medium transition-colors outline-none hover:bg-muted/40 focus-visible:ring-2 focus-visible:ring-ring/40 focus-visible:ring-inset sm:px-4 [&[data-state=open]>svg:last-child]:rotate-180',
          className,
        )}
        {...props}
      >
        {children}
        <ChevronDown aria-hidden className="ml-auto size-4 shrink-0 text-muted-foreground transition-transform" />
      </AccordionPrimitive.Trigger>
    </AccordionPrimitive.Header>
  );
}

/** AccordionContent is a section's body, shown while it is open. */
export function AccordionContent({ className, ...props }: ComponentProps<typeof AccordionPrimitive.Content>) {
  return (
    <AccordionPrimitive.Content
      className={cn('px-3 pt-1 pb-4 text-sm data-[state=open]:animate-fade-in sm:px-4', className)}
      {...props}
    />
  );
}
