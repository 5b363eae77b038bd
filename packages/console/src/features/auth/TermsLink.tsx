/**
 * TermsLink is the "terms and conditions" link beside the register form's checkbox: the address the operator set,
 * opened in a new tab so that the form keeps what was typed.
 */
export function TermsLink({ id, href }: { id?: string; href: string }) {
  return (
    <a
      id={id}
      href={href}
      target="_blank"
      rel="noopener"
      className="rounded-sm font-medium text-primary underline-offset-4 hover:underline focus-visible:underline focus-visible:ring-2 focus-visible:ring-ring/40 focus-visible:outline-none"
    >
      terms and conditions
    </a>
  );
}
