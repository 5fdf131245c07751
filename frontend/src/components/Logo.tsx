// The three-part wordmark of the header (spec sections 1 and 9: four size steps).

/** The logo's size steps. */
export type LogoSize = "small" | "medium" | "large" | "xlarge";

/** The business name as a wordmark: first word, middle, last word, each styled apart. */
export function Logo({ name, size = "medium" }: { name: string; size?: LogoSize }) {
  const words = name.trim().split(/\s+/);
  const first = words[0] ?? "";
  const last = words.length > 2 ? words[words.length - 1] : (words[1] ?? "");
  const middle = words.length > 2 ? words.slice(1, -1).join(" ") : "";
  return (
    <span className={`logo logo--${size}`}>
      <span className="logo__first">{first}</span>
      {middle && (
        <>
          {" "}
          <span className="logo__middle">{middle}</span>
        </>
      )}
      {last && (
        <>
          {" "}
          <span className="logo__last">{last}</span>
        </>
      )}
    </span>
  );
}
