// The money tab's cash-up: a day picker (today to start with), the day's takings by method, and
// each person who took cash that day with what they collected, handed in and still hold. Without
// JavaScript the day picker is a GET form to /admin and the day reads as the server rendered it.
import { type FormEvent, useState } from "react";
import type { CashUp } from "../../lib/admin/types";
import { formatDate } from "../../lib/format";
import { CashHolderCard } from "./CashHolderCard";
import { TakingsList } from "./TakingsList";

interface CashUpSectionProps {
  cashUp: CashUp | null;
  loading: boolean;
  /** The day shown in the picker when no cash-up is loaded yet (YYYY-MM-DD). */
  today: string;
  csrf: string;
  onDay: (day: string) => void;
  onOpen: (id: string) => void;
  onHandedIn: (cashUp: CashUp, holder: string, amount: number) => void;
  onSessionEnded: () => void;
}

/** A `YYYY-MM-DD` day as staff read it: 'Wed, 25 Nov 2026'. */
function dayText(day: string): string {
  return formatDate(`${day}T12:00:00+03:00`) || day;
}

/** The section. */
export function CashUpSection(props: CashUpSectionProps) {
  const { cashUp, csrf, onOpen, onHandedIn, onSessionEnded } = props;
  const [day, setDay] = useState(cashUp?.day ?? props.today);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (day) props.onDay(day);
  }

  return (
    <section className="cash-up" aria-labelledby="cash-up-heading">
      <h2 id="cash-up-heading">Cash-up</h2>
      <form className="filter-bar run-day" method="get" action="/admin" aria-label="Choose the day" onSubmit={onSubmit}>
        <input type="hidden" name="tab" value="money" />
        <div className="field">
          <label htmlFor="cash-up-day">Day</label>
          <input
            id="cash-up-day"
            type="date"
            name="date"
            required
            value={day}
            onChange={(event) => setDay(event.target.value)}
          />
        </div>
        <button type="submit" className="button button--primary">
          Show
        </button>
      </form>
      {!cashUp ? (
        <p className="admin-empty">{props.loading ? "Loading the day's money…" : "Choose a day to see its money."}</p>
      ) : (
        <div className="cash-up__body">
          <section className="card takings cash-up__takings" aria-labelledby="cash-up-takings">
            <h3 id="cash-up-takings">
              Takings{" "}
              <time className="takings__day" dateTime={cashUp.day}>
                {dayText(cashUp.day)}
              </time>
            </h3>
            <TakingsList takings={cashUp.takings} totalLabel="Total" />
          </section>
          <section aria-labelledby="cash-up-holders">
            <h3 id="cash-up-holders">Cash by who holds it</h3>
            {cashUp.holders.length === 0 ? (
              <p className="admin-empty">No cash was taken or given back on this day.</p>
            ) : (
              <div className="cash-up__holders">
                {cashUp.holders.map((holder) => (
                  <CashHolderCard
                    key={holder.holder}
                    holder={holder}
                    day={cashUp.day}
                    csrf={csrf}
                    onOpen={onOpen}
                    onHandedIn={onHandedIn}
                    onSessionEnded={onSessionEnded}
                  />
                ))}
              </div>
            )}
          </section>
        </div>
      )}
    </section>
  );
}
