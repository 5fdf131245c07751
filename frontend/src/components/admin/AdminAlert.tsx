// A failure on the staff dashboard: the server's message, or, when the session has ended, the way
// back to the sign-in page.
import type { Failure } from "../../lib/admin/api";

/** Where a staff member whose session ended signs in again, coming back to the dashboard after. */
const SIGN_IN_AGAIN = "/admin/login?next=/admin";

/** One error alert. */
export function AdminAlert({ failure }: { failure: Failure }) {
  return (
    <div className="alert alert--error" role="alert">
      {failure.text}
      {failure.sessionEnded && (
        <>
          {" "}
          <a href={SIGN_IN_AGAIN}>Sign in</a>
        </>
      )}
    </div>
  );
}
