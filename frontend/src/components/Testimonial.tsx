// One customer testimonial (spec section 3): photo with a fallback avatar, source label, rating.
import { useEffect, useRef, useState } from "react";

/** A testimonial as the server sends it. */
export interface TestimonialData {
  name: string;
  role: string;
  text: string;
  rating: number;
  /** Where the review was given ('Google Review', say). */
  source: string;
  image: string;
}

function initials(name: string): string {
  return name
    .split(/\s+/)
    .map((word) => word[0] ?? "")
    .join("")
    .slice(0, 2)
    .toUpperCase();
}

/** The card. If the photo fails to load, the customer's initials stand in its place. */
export function Testimonial({ testimonial }: { testimonial: TestimonialData }) {
  const [imageFailed, setImageFailed] = useState(false);
  const image = useRef<HTMLImageElement>(null);
  // The server-rendered image may have failed before React attached its error handler.
  useEffect(() => {
    const element = image.current;
    if (element?.complete && element.naturalWidth === 0 && element.currentSrc !== "") setImageFailed(true);
  }, []);
  return (
    <figure className="card testimonial">
      <div className="testimonial__rating" role="img" aria-label={`Rated ${testimonial.rating} out of 5`}>
        {"★".repeat(testimonial.rating)}
      </div>
      <blockquote>
        <p>{testimonial.text}</p>
      </blockquote>
      <figcaption className="testimonial__person">
        {imageFailed ? (
          <span className="avatar avatar--fallback" aria-hidden="true" data-testid="avatar-fallback">
            {initials(testimonial.name)}
          </span>
        ) : (
          <img
            ref={image}
            className="avatar"
            src={testimonial.image}
            alt=""
            width={48}
            height={48}
            loading="lazy"
            decoding="async"
            onError={() => setImageFailed(true)}
          />
        )}
        <span>
          <strong>{testimonial.name}</strong>
          <span className="muted"> · {testimonial.role}</span>
          <span className="testimonial__source">{testimonial.source}</span>
        </span>
      </figcaption>
    </figure>
  );
}
