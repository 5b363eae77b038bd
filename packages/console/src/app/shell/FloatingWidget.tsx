import { CircleHelp, GraduationCap, LifeBuoy, Undo2 } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { Tooltip } from '@/components/ui/tooltip';
import { HelpCenterDialog } from '@/features/help/HelpCenterDialog';
import { useOnboarding } from '@/features/onboarding/onboarding-context';
import { useUndo } from '@/features/undo/undo-context';

/**
 * FloatingWidget is Undo (when there is history) and the Help menu: floating at the bottom right from 640 px up;
 * narrower, it ends the page instead (right-aligned), as floating it would cover the end of rows — a list's delete
 * buttons — wherever the page rests.
 */
export function FloatingWidget() {
  const { canUndo, undo } = useUndo();
  const { restart } = useOnboarding();
  const [helpOpen, setHelpOpen] = useState(false);
  return (
    <div className="flex items-center justify-end gap-2 px-4 pb-4 sm:fixed sm:right-4 sm:bottom-4 sm:z-40 sm:p-0">
      {canUndo && (
        <Tooltip content="Undo the last revert or restore">
          <Button variant="outline" className="h-10 rounded-full shadow-lg" onClick={undo}>
            <Undo2 />
            Undo
          </Button>
        </Tooltip>
      )}
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button size="icon" className="size-11 rounded-full shadow-lg" aria-label="Help">
            <CircleHelp className="size-5!" />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent side="top" align="end" className="w-56">
          <DropdownMenuLabel>Help</DropdownMenuLabel>
          <DropdownMenuSeparator />
          <DropdownMenuItem onSelect={() => setHelpOpen(true)}>
            <LifeBuoy />
            Help Center
          </DropdownMenuItem>
          <DropdownMenuItem onSelect={restart}>
            <GraduationCap />
            Show Onboarding
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      <HelpCenterDialog open={helpOpen} onOpenChange={setHelpOpen} onRestartOnboarding={restart} />
    </div>
  );
}
