import { CircleHelp } from 'lucide-react';
import { Tooltip as TooltipPrimitive } from 'radix-ui';
import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';

/** TOOLTIP_DELAY_MS and friends are the hover delays */
export const TOOLTIP_DELAY_MS = 700;
export const HELP_TOOLTIP_DELAY_MS = 300;
export const TOOLTIP_SKIP_DELAY_MS = 300;

/** TooltipProvider sets the console-wide tooltip delays. */
export function TooltipProvider({ children }: { children: ReactNode }) {
  return (
    <TooltipPrimitive.Provider delayDuration={TOOLTIP_DELAY_MS} skipDelayDuration={TOOLTIP_SKIP_DELAY_MS}>
      {children}
    </TooltipPrimitive.Provider>
  );
}

/** Tooltip shows a short hint when its child is hovered or focused. */
export function Tooltip({
  content,
  children,
  side = 'top',
  delayDuration,
  className,
}: {
  content: ReactNode;
  children: ReactNode;
  side?: 'top' | 'right' | 'bottom' | 'left';
  delayDuration?: number;
  className?: string;
}) {
  return (
    <TooltipPrimitive.Root delayDuration={delayDuration}>
      <TooltipPrimitive.Trigger asChild>{children}</TooltipPrimitive.Trigger>
      <TooltipPrimitive.Portal>
        <TooltipPrimitive.Content
          side={side}
          sideOffset={6}
          className={cn(
            'z-50 max-w-xs rounded-md bg-foreground px-2.5 py-1.5 text-xs text-background shadow-md data-[state=delayed-open]:animate-fade-in',
            className,
          )}
        >
          {content}
        </TooltipPrimitive.Content>
      </TooltipPrimitive.Portal>
    </TooltipPrimitive.Root>
  );
}

/** HelpTooltip is a small question-mark icon explaining the thing next to it; it opens faster (300 ms). */
export function HelpTooltip({ content, label = 'More information' }: { content: ReactNode; label?: string }) {
  return (
    <Tooltip content={content} delayDuration={HELP_TOOLTIP_DELAY_MS}>
      <button type="button" aria-label={label} className="inline-flex text-muted-foreground hover:text-foreground">
        <CircleHelp className="size-3.5" />
      </button>
    </Tooltip>
  );
}
