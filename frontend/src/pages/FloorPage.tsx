// /admin/garments: the shop floor. Find an order by its tag (typed, or scanned with the phone's
// camera where the browser has a barcode detector), audit the racks (tick what is there; what is
// not is marked missing), and resolve the open claims with the intake notes and photos beside them.
// Every form is a plain post or get that works without JavaScript.
import { useEffect, useId, useRef, useState } from "react";
import { Field, describedBy } from "../components/Field";
import { StaffPageHead } from "../components/admin/StaffPageHead";
import type { FloorPageProps } from "../lib/generated/FloorPageProps";
import type { OpenClaim } from "../lib/generated/OpenClaim";
import type { RackView } from "../lib/generated/RackView";
import type { ResolveValues } from "../lib/generated/ResolveValues";
import { formatDateTime } from "../lib/format";
import type { SharedProps } from "../lib/types";
import { useHydrated } from "../lib/useHydrated";
import type { PageMeta } from "../routes";
import { PhotoThumb } from "./GarmentsPage";

/** Props of the shop floor page. */
export type FloorProps = SharedProps & FloorPageProps;

/** Title and description for the document shell. */
export function meta(props: FloorProps): PageMeta {
  return {
    title: `Shop floor | ${props.business.name}`,
    description: "Find an order by its tag, audit the racks, resolve claims.",
    ...(props.scanError ? { status: 404 } : Object.keys(props.errors).length > 0 ? { status: 422 } : {}),
  };
}

/** The browser's barcode detector, where it has one (Chrome on Android, not desktop Firefox). */
interface Detector {
  detect(source: HTMLVideoElement): Promise<{ rawValue: string }[]>;
}
type DetectorClass = new (options: { formats: string[] }) => Detector;

function detectorClass(): DetectorClass | null {
  const found = (globalThis as { BarcodeDetector?: DetectorClass }).BarcodeDetector;
  return typeof found === "function" ? found : null;
}

/** Scans a tag's QR code with the camera and opens what it names; shown only where it can work. */
function CameraScan() {
  const hydrated = useHydrated();
  const [scanning, setScanning] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const video = useRef<HTMLVideoElement>(null);

  useEffect(() => {
    if (!scanning) return;
    const Detector = detectorClass();
    if (!Detector || !navigator.mediaDevices) return;
    let stream: MediaStream | null = null;
    let stopped = false;
    const detector = new Detector({ formats: ["qr_code"] });
    async function run() {
      try {
        stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" } });
        if (!video.current || stopped) return;
        video.current.srcObject = stream;
        await video.current.play();
        while (!stopped && video.current) {
          const codes = await detector.detect(video.current);
          const raw = codes[0]?.rawValue;
          if (raw) {
            window.location.assign(`/admin/scan?tag=${encodeURIComponent(raw)}`);
            return;
          }
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
      } catch {
        setProblem("The camera could not be opened. Type the tag number instead.");
        setScanning(false);
      }
    }
    void run();
    return () => {
      stopped = true;
      stream?.getTracks().forEach((track) => track.stop());
    };
  }, [scanning]);

  if (!hydrated || !detectorClass()) return null;
  return (
    <div className="camera-scan">
      <button type="button" className="button button--outline" onClick={() => setScanning(!scanning)}>
        {scanning ? "Stop the camera" : "Scan with the camera"}
      </button>
      {scanning && <video ref={video} className="camera-scan__video" muted playsInline aria-label="Camera" />}
      {problem && (
        <p className="field__error" role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}

function RackFieldset({ rack }: { rack: RackView }) {
  return (
    <fieldset className="rack">
      <legend>{`Rack ${rack.name}`}</legend>
      {rack.orders.length === 0 ? (
        <p className="rack__empty">Empty</p>
      ) : (
        rack.orders.map((order) => (
          <label className="choice rack__order" key={order.reference}>
            <input type="hidden" name="listed" value={order.reference} />
            <input type="checkbox" name="seen" value={order.reference} />{" "}
            <a href={`/admin/orders/${order.reference}/items`}>{order.reference}</a>
            {` · ${order.customerName} · ${order.items} items`}
            {order.missingSince && (
              <span className="badge badge--danger">{` Missing since ${formatDateTime(order.missingSince)}`}</span>
            )}
          </label>
        ))
      )}
    </fieldset>
  );
}

const OUTCOMES: [string, string][] = [
  ["note", "Answer with a note (found, explained)"],
  ["reclean", "Clean it again for free"],
  ["refund", "Money off, given back"],
  ["credit", "Money off, kept as credit"],
];

function ClaimCard({
  open,
  csrf,
  errors,
  values,
}: {
  open: OpenClaim;
  csrf: string;
  errors: Record<string, string> | null;
  /** What its resolve form held when it came back with errors. */
  values: ResolveValues | null;
}) {
  const { claim, items } = open;
  const ids = { note: useId(), amount: useId(), method: useId(), outcome: useId() };
  const error = (field: string) => errors?.[field];
  return (
    <li className="card claim" id={`claim-${claim.id}`}>
      <h3>
        {`${claim.kind === "missing" ? "Missing" : "Damaged"}: order `}
        <a href={`/admin/orders/${claim.reference}/items`}>{claim.reference}</a>
        {` (${claim.customerName})`}
      </h3>
      <p>
        {claim.tags.length > 0 ? `Items ${claim.tags.join(", ")}. ` : ""}
        {claim.story}
      </p>
      <p className="claim__meta">{`Reported by ${claim.openedBy} on ${formatDateTime(claim.openedAt)}`}</p>
      {claim.photos.length > 0 && (
        <div className="garment__photos">
          {claim.photos.map((photo, at) => (
            <PhotoThumb key={photo.url} url={photo.url} thumbUrl={photo.thumbUrl} label={`Claim photo ${at + 1}`} />
          ))}
        </div>
      )}
      <details className="claim__intake" open>
        <summary>{`As taken in (${items.length} ${items.length === 1 ? "item" : "items"})`}</summary>
        {items.length === 0 ? (
          <p className="admin-empty">No items were recorded at intake.</p>
        ) : (
          <ul>
            {items.map((item) => (
              <li key={item.tag}>
                <strong>{item.label}</strong>
                {` ${item.item}${item.colour ? `, ${item.colour}` : ""}${item.note ? ` (${item.note})` : ""}`}
                {item.damage && <span className="garment__damage">{` Noted: ${item.damage}`}</span>}
                {item.photos.map((photo, at) => (
                  <PhotoThumb
                    key={photo.url}
                    url={photo.url}
                    thumbUrl={photo.thumbUrl}
                    label={`Intake photo ${at + 1} of ${item.label}`}
                  />
                ))}
              </li>
            ))}
          </ul>
        )}
      </details>
      <form className="claim__resolve" method="post" action={`/admin/claims/${claim.id}/resolve`}>
        <input type="hidden" name="csrf" value={csrf} />
        <fieldset aria-describedby={error("outcome") ? `${ids.outcome}-error` : undefined}>
          <legend>Resolve</legend>
          {OUTCOMES.map(([value, label]) => (
            <label className="choice" key={value}>
              <input type="radio" name="outcome" value={value} required defaultChecked={values?.outcome === value} />{" "}
              {label}
            </label>
          ))}
          {error("outcome") && (
            <p className="field__error" id={`${ids.outcome}-error`}>
              {error("outcome")}
            </p>
          )}
        </fieldset>
        <Field
          id={ids.amount}
          label="Amount off the order (KSh)"
          hint="For money off: given back, or kept as credit."
          error={error("amount")}
        >
          <input
            id={ids.amount}
            name="amount"
            type="number"
            inputMode="numeric"
            min={1}
            defaultValue={values?.amount ?? ""}
            aria-invalid={error("amount") ? true : undefined}
            aria-describedby={describedBy(ids.amount, true, error("amount"))}
          />
        </Field>
        <Field id={ids.method} label="Given back by" hint="For money given back." error={error("method")}>
          <select
            id={ids.method}
            name="method"
            defaultValue={values?.method || "mpesa-reversal"}
            aria-describedby={describedBy(ids.method, true, error("method"))}
          >
            <option value="mpesa-reversal">M-PESA reversal</option>
            <option value="cash">Cash</option>
          </select>
        </Field>
        <Field id={ids.note} label="What the customer is told" error={error("note")}>
          <textarea
            id={ids.note}
            name="note"
            rows={2}
            maxLength={500}
            defaultValue={values?.note ?? ""}
            aria-invalid={error("note") ? true : undefined}
            aria-describedby={describedBy(ids.note, false, error("note"))}
          />
        </Field>
        <button type="submit" className="button button--primary">
          Resolve and text the customer
        </button>
      </form>
    </li>
  );
}

/** The shop floor page. */
export default function FloorPage(props: FloorProps) {
  const tagId = useId();
  const expected = props.racks.reduce((sum, rack) => sum + rack.orders.length, 0);
  return (
    <>
      <StaffPageHead title="Shop floor" lead="Find an order by its tag, audit the racks, resolve claims" />
      <section className="section section--admin floor-page">
        <div className="container">
          {props.notice && (
            <p className="alert alert--success" role="status">
              {props.notice}
            </p>
          )}
          <section className="card" aria-labelledby="scan-title">
            <h2 id="scan-title">Find an order by its tag</h2>
            <form method="get" action="/admin/scan" className="scan-form">
              <Field
                id={tagId}
                label="Tag or order ID"
                hint="Like K7MX2QPD-3, as printed on the tag. A phone's camera app opens a tag's QR code too."
                error={props.scanError ?? undefined}
              >
                <input
                  id={tagId}
                  name="tag"
                  type="text"
                  autoComplete="off"
                  autoCapitalize="characters"
                  defaultValue={props.scanned}
                  required
                  aria-invalid={props.scanError ? true : undefined}
                  aria-describedby={describedBy(tagId, true, props.scanError ?? undefined)}
                />
              </Field>
              <button type="submit" className="button button--primary">
                Open
              </button>
            </form>
            <CameraScan />
          </section>

          <section className="card" aria-labelledby="racks-title" id="racks">
            <h2 id="racks-title">Racks</h2>
            <p>
              {expected === 0
                ? "No ready order hangs on a rack now."
                : `${expected} ready ${expected === 1 ? "order should hang" : "orders should hang"} on the racks. Tick each one you find; those not ticked are marked missing.`}
            </p>
            <form method="post" action="/admin/racks/audit">
              <input type="hidden" name="csrf" value={props.csrf} />
              <div className="racks">
                {props.racks.map((rack) => (
                  <RackFieldset key={rack.name} rack={rack} />
                ))}
              </div>
              {expected > 0 && (
                <button type="submit" className="button button--primary racks__save">
                  Save the audit
                </button>
              )}
            </form>
          </section>

          <section aria-labelledby="claims-title" id="claims">
            <h2 id="claims-title">{`Open claims (${props.claims.length})`}</h2>
            {props.claims.length === 0 ? (
              <p className="admin-empty">No open claims.</p>
            ) : (
              <ol className="claims">
                {props.claims.map((open) => (
                  <ClaimCard
                    key={open.claim.id}
                    open={open}
                    csrf={props.csrf}
                    errors={props.errorClaim === open.claim.id ? props.errors : null}
                    values={props.errorClaim === open.claim.id ? props.resolveValues : null}
                  />
                ))}
              </ol>
            )}
          </section>
        </div>
      </section>
    </>
  );
}
