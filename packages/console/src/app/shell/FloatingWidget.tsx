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

/** FloatingWidget sits at the bottom right: Undo (when there is history) and the Help menu. */
export function FloatingWidget() {
  const { canUndo, undo } = useUndo();
  const { restart } = useOnboarding();
  const [helpOpen, setHelpOpen] = useState(false);
  return (
    <div className="fixed right-4 bottom-4 z-40 flex items-center gap-2">
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
