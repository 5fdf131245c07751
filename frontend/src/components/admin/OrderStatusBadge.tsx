// An order's status on the dashboard: its colour (spec section 4), an icon and its name.
import { statusIcon, statusTone } from "../../lib/admin/display";
import { statusLabel } from "../../lib/tracking";
import { Icon } from "../Icon";

/** The badge. */
export function OrderStatusBadge({ status }: { status: string }) {
  return (
    <span className={`badge badge--${statusTone(status)} badge--with-icon`}>
      <Icon name={statusIcon(status)} className="icon icon--small" />
      {statusLabel(status)}
    </span>
  );
}
