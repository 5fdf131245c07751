// "Use my location" on the order form: the browser's position as an optional map pin for the valet,
// sent in the hidden pinLat and pinLng fields. It needs JavaScript, so the button appears once the
// page is hydrated; without it the form still works with Location and Landmark.
import { useState } from "react";
import { describedBy } from "./Field";
import { useHydrated } from "../lib/useHydrated";

interface LocationPinProps {
  /** The pin sent back with the form, if any (degrees as text). */
  lat: string;
  lng: string;
  /** The server's message about the pin. */
  error: string | undefined;
}

type Lookup = "idle" | "locating" | "denied" | "unavailable" | "unsupported";

const MESSAGES: Record<Exclude<Lookup, "idle" | "locating">, string> = {
  denied:
    "Your browser did not allow us to see your location. You can still describe the place in Location and Landmark.",
  unavailable:
    "Your location could not be found just now. Please try again, or describe the place in Location and Landmark.",
  unsupported: "This browser cannot share its location. Please describe the place in Location and Landmark.",
};

/** Degrees as the form sends them: six decimals (about 11 cm). */
function degrees(value: number): string {
  return value.toFixed(6);
}

/** The pin's hidden fields, whether one is added, and the buttons that add or remove it. */
export function LocationPin({ lat, lng, error }: LocationPinProps) {
  const hydrated = useHydrated();
  const [pin, setPin] = useState({ lat, lng });
  const [lookup, setLookup] = useState<Lookup>("idle");
  const added = pin.lat !== "" && pin.lng !== "";
  const message = lookup === "idle" || lookup === "locating" ? null : MESSAGES[lookup];

  const locate = () => {
    if (!("geolocation" in navigator)) {
      setLookup("unsupported");
      return;
    }
    setLookup("locating");
    navigator.geolocation.getCurrentPosition(
      (position) => {
        setLookup("idle");
        setPin({ lat: degrees(position.coords.latitude), lng: degrees(position.coords.longitude) });
      },
      (failure) => setLookup(failure.code === failure.PERMISSION_DENIED ? "denied" : "unavailable"),
      { enableHighAccuracy: true, timeout: 20_000, maximumAge: 60_000 },
    );
  };

  const hidden = (
    <>
      <input type="hidden" name="pinLat" value={pin.lat} />
      <input type="hidden" name="pinLng" value={pin.lng} />
    </>
  );
  // Without JavaScript there is nothing to press: only a pin sent back (or its error) shows.
  if (!hydrated && !added && !error) return hidden;
  return (
    <div className={error ? "field field--invalid location-pin" : "field location-pin"}>
      {hidden}
      <span className="field__label">
        Map Pin<span className="field__optional"> (Optional)</span>
      </span>
      <div className="location-pin__row">
        <p className="location-pin__state" aria-live="polite">
          {added ? "Location added" : lookup === "locating" ? "Finding your location…" : ""}
        </p>
        {hydrated &&
          (added ? (
            <button type="button" className="button button--outline" onClick={() => setPin({ lat: "", lng: "" })}>
              Remove
            </button>
          ) : (
            <button
              type="button"
              className="button button--outline"
              onClick={locate}
              disabled={lookup === "locating"}
              aria-describedby={describedBy("order-pin", true, error)}
            >
              Use my location
            </button>
          ))}
      </div>
      <p className="field__hint" id="order-pin-hint">
        Helps the valet find you. We use it only for your pickup and delivery.
      </p>
      {message && (
        <p className="field__error" role="alert">
          {message}
        </p>
      )}
      {error && (
        <p className="field__error" id="order-pin-error">
          {error}
        </p>
      )}
    </div>
  );
}
