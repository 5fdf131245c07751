// Images imported by components resolve to their hashed public URL (esbuild's file loader).
declare module "*.svg" {
  const url: string;
  export default url;
}
