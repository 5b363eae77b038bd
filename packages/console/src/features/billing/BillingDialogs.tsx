import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { buttonVariants } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';

/** CancelSubscriptionDialog confirms a cancellation: the plan stays until the end of the billing period. */
export function CancelSubscriptionDialog({
  open,
  onConfirm,
  onClose,
}: {
  open: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <AlertDialog open={open} onOpenChange={(next) => !next && onClose()}>
      <AlertDialogContent>
        <AlertDialogTitle>Cancel Subscription</AlertDialogTitle>
        <AlertDialogDescription>
          You'll still have access to your current plan until the end of your billing period.
        </AlertDialogDescription>
        <AlertDialogFooter>
          <AlertDialogCancel>Keep Subscription</AlertDialogCancel>
          <AlertDialogAction
            className={buttonVariants({ variant: 'destructive' })}
            onClick={() => {
              onConfirm();
              onClose();
            }}
          >
            Cancel Subscription
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

/**
 * PaymentDialog shows a spinner while the checkout session is prepared; with an embedded session (a client
 * secret) it says the payment form is ready in Stripe's secure page.
 */
export function PaymentDialog({
  open,
  preparing,
  clientSecret,
  onClose,
}: {
  open: boolean;
  preparing: boolean;
  clientSecret: string | null;
  onClose: () => void;
}) {
  return (
    <Dialog open={open} onOpenChange={(next) => !next && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Complete your payment</DialogTitle>
          <DialogDescription>Payments are handled by Stripe; Basalt never sees your card.</DialogDescription>
        </DialogHeader>
        {preparing || !clientSecret ? (
          <div className="flex flex-col items-center gap-3 py-8 text-sm text-muted-foreground">
            <Spinner label="Preparing checkout" className="size-6" />
            Preparing your checkout session…
          </div>
        ) : (
          <div className="py-4 text-sm">
            Your checkout session is ready. Finish the payment in Stripe's form; this page updates once Stripe confirms
            it.
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}
