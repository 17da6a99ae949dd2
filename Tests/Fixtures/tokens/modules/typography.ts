// A token module as design systems write them: plain object literals, `as const`.
import type { TextStyle } from "./types";

export const fontWeights = {
  regular: 400,
  semibold: 600,
  black: 900, // defined, used by no style
} as const;

export const fontFamilies = {
  sans: "'Inter', -apple-system, sans-serif",
};

export const typography: Record<string, TextStyle> = {
  body: { fontFamily: fontFamilies.sans, fontWeight: fontWeights.regular, fontSize: 16 },
  heading: {
    fontFamily: fontFamilies.sans,
    fontWeight: fontWeights.semibold,
    fontStyle: "italic",
  },
};
