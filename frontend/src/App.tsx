// The tree both entries render: the shared layout around one page.
import type { ComponentType } from "react";
import { Layout } from "./components/Layout";
import type { AnyPageProps } from "./routes";

/** One page inside the shared header and footer, or on its own when the page is `bare`. */
export function App({
  Page,
  props,
  bare = false,
}: {
  Page: ComponentType<AnyPageProps>;
  props: AnyPageProps;
  bare?: boolean;
}) {
  if (bare) return <Page {...props} />;
  return (
    <Layout shared={props}>
      <Page {...props} />
    </Layout>
  );
}
