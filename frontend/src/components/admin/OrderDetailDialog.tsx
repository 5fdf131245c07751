// An order opened from the dashboard's table: a modal dialog (the page behind it is inert, Tab
// stays inside it, Escape and the Close button close it and the focus goes back to the button that
// opened it), full screen on a phone. It loads the order's detail and loads it again when the
// order changes in the table (a status or payment change, or a poll that brought a change).
import { type SyntheticEvent, useEffect, useRef, useState } from "react";
import { type Failure, failureOf, getOrderDetail } from "../../lib/admin/api";
import type { OrderDetail } from "../../lib/admin/types";
import { Icon } from "../Icon";
import { AdminAlert } from "./AdminAlert";
import { OrderDetailView } from "./OrderDetailView";

interface OrderDetailDialogProps {
  /** The order ID. */
  id: string;
  /** Changes when the order changed: the detail is loaded again. */
  version: string;
  onClose: () => void;
  onSessionEnded: () => void;
  /** Opens another order's detail instead (a re-clean's, or the order it cleans again). */
  onOpen: (id: string) => void;
}

/** The dialog, open while it is rendered. */
export function OrderDetailDialog({ id, version, onClose, onSessionEnded, onOpen }: OrderDetailDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [detail, setDetail] = useState<OrderDetail | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);
  const headingId = `order-detail-${id}`;
  // The latest callback, read when a load fails: a new function at each render must not load again.
  const sessionEnded = useRef(onSessionEnded);
  useEffect(() => {
    sessionEnded.current = onSessionEnded;
  });

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

  useEffect(() => {
    const request = new AbortController();
    getOrderDetail(id, request.signal).then(
      (loaded) => {
        setDetail(loaded);
        setFailure(null);
      },
      (error: unknown) => {
        if (request.signal.aborted) return;
        const shown = failureOf(error);
        if (shown.sessionEnded) sessionEnded.current();
        setFailure(shown);
      },
    );
    return () => request.abort();
  }, [id, version]);

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
        <OrderDetailView detail={detail} onOpen={onOpen} />
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
