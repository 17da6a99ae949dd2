// Written by fontresolve audit --emit flutter: the design system's text styles.
import 'package:flutter/painting.dart';

abstract final class FontRegTextStyles {
  /// text.body
  /// Baseline 17.818 from the line's top, as in Figma.
  static const textBody = TextStyle(
    fontFamily: 'Inter',
    fontWeight: FontWeight.w400,
    fontStyle: FontStyle.normal,
    fontSize: 16,
    height: 1.5,
    leadingDistribution: TextLeadingDistribution.even,
  );
  /// text.bodyStrong
  /// Baseline 17.818 from the line's top, as in Figma.
  static const textBodyStrong = TextStyle(
    fontFamily: 'Inter',
    fontWeight: FontWeight.w600,
    fontStyle: FontStyle.normal,
    fontSize: 16,
    height: 1.5,
    leadingDistribution: TextLeadingDistribution.even,
  );
  /// text.caption
  /// Baseline 13.364 from the line's top, as in Figma.
  static const textCaption = TextStyle(
    fontFamily: 'Inter',
    fontWeight: FontWeight.w300,
    fontStyle: FontStyle.normal,
    fontSize: 12,
    height: 1.5,
    leadingDistribution: TextLeadingDistribution.even,
  );
  /// text.title
  /// Baseline 32.384 from the line's top, as in Figma.
  static const textTitle = TextStyle(
    fontFamily: 'Lato',
    fontWeight: FontWeight.w700,
    fontStyle: FontStyle.normal,
    fontSize: 32,
    height: 1.25,
    leadingDistribution: TextLeadingDistribution.even,
  );
  /// text.quote
  /// Baseline 21.74 from the line's top, as in Figma.
  static const textQuote = TextStyle(
    fontFamily: 'Lato',
    fontWeight: FontWeight.w400,
    fontStyle: FontStyle.italic,
    fontSize: 20,
    height: 1.4,
    leadingDistribution: TextLeadingDistribution.even,
  );
}
