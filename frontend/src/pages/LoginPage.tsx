// /admin/login, the staff sign-in. A plain form post on purpose, even once hydrated: the server
// checks the password, sets the session cookie and redirects, so nothing here needs JavaScript.
import { Field } from "../components/Field";
import type { LoginProps as OwnProps } from "../lib/generated/LoginProps";
import type { SharedProps } from "../lib/types";
import type { PageMeta } from "../routes";

/** Props of the sign-in page: the form's token, where to go next, and why the last attempt was refused or what just happened (a sign-out). */
export type LoginProps = SharedProps & OwnProps;

/** Title and description for the document shell; the server keeps the page out of search engines. */
export function meta(props: LoginProps): PageMeta {
  return {
    title: `Staff sign in | ${props.business.name}`,
    description: `Sign in to the staff dashboard of ${props.business.name}.`,
    status: props.status,
  };
}

/** The sign-in page. */
export default function LoginPage(props: LoginProps) {
  return (
    <section className="section">
      <div className="container">
        <div className="card login-card">
          <h1>Staff sign in</h1>
          <p className="muted">For staff of {props.business.name}.</p>
          {props.error && (
            <div className="alert alert--error" role="alert">
              {props.error}
            </div>
          )}
          {props.notice && (
            <div className="alert alert--success" role="status">
              {props.notice}
            </div>
          )}
          <form className="form" method="post" action="/admin/login">
            <input type="hidden" name="csrf" value={props.csrf} />
            <input type="hidden" name="next" value={props.next} />
            <Field id="login-email" label="Email">
              <input
                id="login-email"
                name="email"
                type="email"
                autoComplete="username"
                required
                maxLength={254}
                defaultValue={props.email}
              />
            </Field>
            <Field id="login-password" label="Password">
              <input
                id="login-password"
                name="password"
                type="password"
                autoComplete="current-password"
                required
                maxLength={1024}
              />
            </Field>
            <button type="submit" className="button button--primary button--block">
              Sign in
            </button>
          </form>
        </div>
      </div>
    </section>
  );
}
