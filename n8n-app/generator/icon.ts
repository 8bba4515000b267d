/** The package's icon: a bell on a rounded square, 60×60 as n8n draws node icons. */
const bell = (background: string, bellColor: string) => `<svg xmlns="http://www.w3.org/2000/svg" width="60" height="60" viewBox="0 0 60 60">
  <rect width="60" height="60" rx="12" fill="${background}"/>
  <path d="M30 12c-7.2 0-12 5.6-12 12.5v8.8L14 39v3h32v-3l-4-5.7v-8.8C42 17.6 37.2 12 30 12z" fill="${bellColor}"/>
  <circle cx="30" cy="47" r="4.5" fill="${bellColor}"/>
</svg>
`;

/** For n8n's light theme. */
export const ICON_SVG = bell('#E8453C', '#fff');
/** For n8n's dark theme: a lighter red that keeps its contrast on a dark canvas. */
export const ICON_DARK_SVG = bell('#FF6B61', '#1F1F1F');
