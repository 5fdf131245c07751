// An order opened from the dashboard's table: a modal dialog (the page behind it is inert, Tab
// stays inside it, Escape and the Close button close it and the focus goes back to the button that
// opened it), full screen on a phone. It loads the order's detail and loads it again when the
// order changes in the table (a status or payment change, or a poll that brought a change), and
// after a change of its money made in the dialog itself.
import { type SyntheticEvent, useEffect, useRef, useState } from "react";
import { getOrderDetail } from "../../lib/admin/api";
import type { OrderChanged, OrderDetail } from "../../lib/admin/types";
import { useResource } from "../../lib/admin/useResource";
import { Icon } from "../Icon";
import { AdminAlert } from "./AdminAlert";
import { OrderDetailView } from "./OrderDetailView";

interface OrderDetailDialogProps {
  /** The order ID. */
  id: string;
  /** Changes when the order changed: the detail is loaded again. */
  version: string;
  csrf: string;
  onClose: () => void;
  /** A change of the order's money was saved in the dialog: the table and the stats follow it. */
  onChanged: (changed: OrderChanged) => void;
  onSessionEnded: () => void;
  /** Opens another order's detail instead (a re-clean's, or the order it cleans again). */
  onOpen: (id: string) => void;
}

/** The dialog, open while it is rendered. */
export function OrderDetailDialog(props: OrderDetailDialogProps) {
  const { id, version, csrf, onClose, onChanged, onSessionEnded, onOpen } = props;
  const dialog = useRef<HTMLDialogElement>(null);
  // How many changes were saved in the dialog: each loads the detail again.
  const [saved, setSaved] = useState(0);
  const { data: detail, failure } = useResource<OrderDetail | null>({
    fetch: (signal) => getOrderDetail(id, signal),
    initial: null,
    onSessionEnded,
    key: `${id} ${version} ${saved}`,
  });
  const headingId = `order-detail-${id}`;

  useEffect(() => {
    const element = dialog.current;
    // The element that opened the dialog gets the focus back when it closes, as a native dialog does.
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (element && !element.open) element.showModal();
    return () => {
      if (element?.open) element.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  function changed(answer: OrderChanged) {
    setSaved((count) => count + 1);
    onChanged(answer);
  }

  /** Escape: React closes it, so that the page's state and the dialog agree. */
  function onCancel(event: SyntheticEvent<HTMLDialogElement>) {
    event.preventDefault();
    onClose();
  }

  return (
    <dialog ref={dialog} className="order-dialog" aria-labelledby={headingId} onCancel={onCancel}>
      <div className="order-dialog__head">
        <h2 id={headingId}>Order #{id}</h2>
        <button type="button" className="button button--outline button--small" onClick={onClose}>
          <Icon name="close" className="icon icon--small" /> Close
        </button>
      </div>
      {failure && <AdminAlert failure={failure} />}
      {detail ? (
        <OrderDetailView
          detail={detail}
          csrf={csrf}
          onOpen={onOpen}
          onChanged={changed}
          onSessionEnded={onSessionEnded}
        />
      ) : (
        !failure && (
          <p className="admin-loading" role="status">
            <span className="spinner" aria-hidden="true" /> Loading the order...
          </p>
        )
      )}
    </dialog>
  );
}
