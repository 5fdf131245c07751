// The page for unknown routes (404) and render failures (500): the default text of spec section 2.
import type { ErrorProps } from "../lib/types";
import type { PageMeta } from "../routes";

/** Title and description for the document shell; the status comes from the server. */
export function meta(props: ErrorProps): PageMeta {
  return {
    title: `${props.status === 404 ? "Page not found" : "Something went wrong"} | ${props.business.name}`,
    description: "Unexpected Application Error!",
    status: props.status,
  };
}

/** The error page. */
export default function ErrorPage(props: ErrorProps) {
  return (
    <section className="section error-page">
      <div className="container">
        <h1>Unexpected Application Error!</h1>
        <p className="error-page__status">{props.status === 404 ? "404 Not Found" : `${props.status} Server Error`}</p>
        <p>
          <a className="button button--primary" href="/">
            Back to Home
          </a>{" "}
          <a className="button button--outline" href="/pricing">
            View Pricing
          </a>
        </p>
      </div>
    </section>
  );
}
