const base = { weight: 400 };

export const fontWeights = {
  ...base,
  bold: base.weight + 300,
};
