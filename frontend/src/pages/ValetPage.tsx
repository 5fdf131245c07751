// /valet, the day's run on a valet's phone (a cheap Android on 2G): rendered on the server and never
// hydrated, so the server sends no script at all. Every action is a plain form post that comes
// back here with a notice. Staff and owners standing in choose a day and a valet with a GET form.
import { StopCard } from "../components/valet/StopCard";
import type { FormContext } from "../components/valet/StopForm";
import type { ValetProps as OwnProps } from "../lib/generated/ValetProps";
import type { SharedProps } from "../lib/types";
import type { PageMeta } from "../routes";

/** Props of the valet page. */
export type ValetProps = SharedProps & OwnProps;

/** Shown without the site's header and footer: the page is for a phone in a valet's hand. */
export const bare = true;

/** Title and description for the document shell; the server keeps the page out of search engines. */
export function meta(props: ValetProps): PageMeta {
  return {
    title: `Valet run, ${props.dayLabel} | ${props.business.name}`,
    description: `The day's pickups and deliveries of ${props.business.name}.`,
    status: props.status,
  };
}

/** The valet page. */
export default function ValetPage(props: ValetProps) {
  const context: FormContext = {
    csrf: props.csrf,
    day: props.chooser ? props.day : null,
    valet: props.chooser?.valet ?? null,
  };
  const windows = props.chooser?.windows ?? [];
  const toGo = props.stops.filter((stop) => stop.state === "planned" || stop.state === "on-the-way").length;
  // Items a customer may add at the door: the price list's entries counted by the piece or kg
  // (General Laundry's are weighed as the order's kg).
  const items = props.priceList.filter((item) => !item.service);
  return (
    <div className="valet">
      <header className="valet-bar">
        <span className="valet-bar__name">{props.business.name}</span>
        <form method="post" action="/admin/logout">
          <input type="hidden" name="csrf" value={props.csrf} />
          <button type="submit" className="button button--light">
            Sign out
          </button>
        </form>
      </header>
      <main id="main" className="valet-main">
        <h1>{props.today ? "Today's run" : `Run of ${props.dayLabel}`}</h1>
        <p className="valet-lead">
          {`${props.dayLabel} · ${props.stops.length} stop${props.stops.length === 1 ? "" : "s"}, ${toGo} to go · ${props.signedIn}`}
        </p>
        {props.chooser && (
          <form className="valet-choose" method="get" action="/valet">
            <label htmlFor="run-date">Day</label>
            <input id="run-date" name="date" type="date" defaultValue={props.day} />
            <label htmlFor="run-valet">Valet</label>
            <select id="run-valet" name="valet" defaultValue={props.chooser.valet ?? ""}>
              <option value="">All stops of the day</option>
              {props.chooser.valets.map((valet) => (
                <option key={valet.id} value={valet.id}>
                  {valet.email}
                </option>
              ))}
            </select>
            <button type="submit" className="button button--light">
              Show
            </button>
          </form>
        )}
        {windows.length > 0 && (
          <nav className="valet-windows" aria-label="Windows of the day">
            <p>{`${windows.reduce((sum, window) => sum + window.stops, 0)} stops on ${props.dayLabel}, one window at a time and without their forms: choose a valet to record at the door.`}</p>
            <ul>
              {windows.map((window) => (
                <li key={window.start}>
                  <a
                    className="button button--light"
                    href={`/valet?date=${encodeURIComponent(props.day)}&window=${encodeURIComponent(window.start)}`}
                    aria-current={window.start === props.chooser?.window ? "page" : undefined}
                  >
                    {`${window.label} (${window.stops})`}
                  </a>
                </li>
              ))}
            </ul>
            {props.chooser && props.chooser.parts > 1 && (
              <p className="valet-windows__parts">
                {`Stops ${props.chooser.first}–${props.chooser.last} of this window's ${
                  windows.find((window) => window.start === props.chooser?.window)?.stops ?? 0
                }: `}
                {Array.from({ length: props.chooser.parts }, (_, index) => index + 1).map((part) => (
                  <a
                    key={part}
                    className="button button--light"
                    href={`/valet?date=${encodeURIComponent(props.day)}&window=${encodeURIComponent(props.chooser?.window ?? "")}&part=${part}`}
                    aria-current={part === props.chooser?.part ? "page" : undefined}
                    aria-label={`Part ${part}`}
                  >
                    {part}
                  </a>
                ))}
              </p>
            )}
          </nav>
        )}
        {props.notice && (
          <p className="note note--ok" role="status">
            {props.notice}
          </p>
        )}
        {props.alert && (
          <p className="note note--error" role="alert">
            {props.alert}
          </p>
        )}
        {props.stops.length === 0 ? (
          <p className="valet-empty">{`No stops in this run ${props.today ? "today" : `on ${props.dayLabel}`}.`}</p>
        ) : (
          <ol className="stops">
            {props.stops.map((stop) => (
              <StopCard key={stop.id} stop={stop} context={context} formError={props.formError} items={items} />
            ))}
          </ol>
        )}
      </main>
    </div>
  );
}
