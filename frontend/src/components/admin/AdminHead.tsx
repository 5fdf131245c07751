// The dashboard's head: its title, the way to the shop floor, and who is signed in, with "Sign out".
import type { StaffView } from "../../lib/generated/StaffView";

/** What each role is called in the head. */
const ROLE_LABELS: Record<StaffView["role"], string> = {
  owner: "Owner",
  staff: "Staff",
  valet: "Valet",
};

/** The head; "Sign out" is a plain POST form, so it works without JavaScript. */
export function AdminHead({ staff, csrf }: { staff: StaffView; csrf: string }) {
  return (
    <section className="admin-head">
      <div className="container admin-head__inner">
        <div>
          <h1>Admin Dashboard</h1>
          <p className="admin-head__lead">Manage orders and customer inquiries</p>
          <p>
            <a href="/admin/garments">Shop floor: scan a tag, racks, claims</a>
          </p>
        </div>
        <form className="admin-head__account" method="post" action="/admin/logout">
          <input type="hidden" name="csrf" value={csrf} />
          <span className="admin-head__staff">
            Signed in as <strong>{staff.email}</strong>{" "}
            <span className="badge badge--secondary">{ROLE_LABELS[staff.role]}</span>
          </span>
          <button type="submit" className="button button--outline button--small">
            Sign out
          </button>
        </form>
      </div>
    </section>
  );
}
