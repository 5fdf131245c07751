// The tree both entries render: the shared layout around one page.
import type { ComponentType } from "react";
import { Layout } from "./components/Layout";
import type { AnyPageProps } from "./routes";

/** One page inside the shared header and footer. */
export function App({ Page, props }: { Page: ComponentType<AnyPageProps>; props: AnyPageProps }) {
  return (
    <Layout shared={props}>
      <Page {...props} />
    </Layout>
  );
}
