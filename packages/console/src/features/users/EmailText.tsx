import { Fragment } from 'react';

/**
 * EmailText shows an address that may wrap only after its "@" and before each "." of its domain, so a narrow
 * column never cuts it mid-word; a single part longer than the column still breaks rather than overflow.
 */
export function EmailText({ email }: { email: string }) {
  const at = email.lastIndexOf('@');
  const local = at < 0 ? email : email.slice(0, at + 1);
  const domain = at < 0 ? [] : email.slice(at + 1).split(/(?=\.)/);
  return (
    <span className="[overflow-wrap:break-word]">
      {local}
      {domain.map((part, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one address never move.
        <Fragment key={i}>
          <wbr />
          {part}
        </Fragment>
      ))}
    </span>
  );
}
