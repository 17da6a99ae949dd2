export const fontWeight = {
  regular: 400,
  bold: 700,
} as const;

export const fontFamily = {
  sans: "Inter, sans-serif",
} as const;
