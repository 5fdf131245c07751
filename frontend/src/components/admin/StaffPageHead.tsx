// The head of a staff page that is not the dashboard (an order's items, the shop floor): its title,
// a line under it, and the way back to the dashboard.

interface StaffPageHeadProps {
  title: string;
  lead: string;
}

/** The head. */
export function StaffPageHead({ title, lead }: StaffPageHeadProps) {
  return (
    <section className="admin-head">
      <div className="container admin-head__inner">
        <div>
          <h1>{title}</h1>
          <p className="admin-head__lead">{lead}</p>
        </div>
        <a className="button button--outline button--small" href="/admin">
          Back to the dashboard
        </a>
      </div>
    </section>
  );
}
