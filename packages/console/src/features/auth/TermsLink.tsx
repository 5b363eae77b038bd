import { SITE_NAME } from '@basalt/shared';
import { useState } from 'react';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';

/**
 * TermsLink is the "terms and conditions" link beside the register form's checkbox. No terms are published
 * yet, so it stands in for them: it opens a note saying so, and the form keeps what was typed.
 */
export function TermsLink({ id }: { id?: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      {/* A button that reads as a link: it opens a note rather than leaving the page. */}
      <button
        id={id}
        type="button"
        className="rounded-sm font-medium text-primary underline-offset-4 hover:underline focus-visible:underline focus-visible:ring-2 focus-visible:ring-ring/40 focus-visible:outline-none"
        onClick={() => setOpen(true)}
      >
        terms and conditions
      </button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Terms and conditions</DialogTitle>
            <DialogDescription>
              The terms of this {SITE_NAME} instance have not been published yet. Ask the person who runs it for them
              before you rely on it.
            </DialogDescription>
          </DialogHeader>
        </DialogContent>
      </Dialog>
    </>
  );
}
