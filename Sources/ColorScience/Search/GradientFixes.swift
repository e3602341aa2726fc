import Foundation

// Fixes for text that misses a WCAG target somewhere on a gradient, each to be measured again on
// the whole gradient by the caller (`GradientContrast`):
// - the lightest uniform scrim: a black or white layer of opacity α between the gradient and
//   the text (CSS `linear-gradient(rgb(0 0 0 / α), rgb(0 0 0 / α))` layered over it). The
//   weakest ratio is not monotone in α everywhere (a black scrim darkens a color the text is
//   already darker than), so α is scanned in steps of 1/16 and the first passing step refined
//   by bisection;
// - the nearest text color of the same OKLCH hue that passes on every color of the gradient
//   (`NearestPassingColor`, the search of `/v1/suggest`). With opaque text on opaque colors the
//   WCAG ratio depends on luminances alone (WCAG 2.2 SC 1.4.3, "contrast ratio"), and a
//   gradient without hard stops shows every luminance between its darkest and lightest colors,
//   so text passes everywhere exactly when its luminance `L` has `(L + 0.05) / (Lmax + 0.05)`
//   or `(Lmin + 0.05) / (L + 0.05)` at least the target: two measurements of the gradient (white
//   text gives `Lmax`, black text `Lmin`) replace one per candidate. With hard stops a color
//   between two luminance bands can pass too; it is not found, and what is found still passes.

/// The scrim and text-color fixes for text on a gradient (see the comment above).
public enum GradientFixes {
    /// Scan steps of the scrim's opacity in `0...1`, then bisection steps on the first passing one.
    static let scrimSteps = 16, scrimBisections = 10

    /// Bisection steps of a scrim's opacity when the weakest ratio rises with it.
    static let monotoneBisections = 11

    /// The lightest opacity as `lightestScrim(margin:)` finds it, when the weakest ratio is known
    /// to rise with `α` and an opaque scrim to pass: opaque text lighter than every color of the
    /// gradient under a black scrim (which darkens every channel of every color), or darker than
    /// every color under a white one. Bisection on `0...1` to 1/2048, 11 calls of `margin`.
    public static func lightestScrim(rising margin: (Double) -> Double) -> Double {
        bisect(0, 1, steps: monotoneBisections, margin)
    }

    /// `hi` after `steps` bisections of `lo...hi` keeping `margin(hi) ≥ 0` and `margin(lo) < 0`.
    static func bisect(_ lo: Double, _ hi: Double, steps: Int, _ margin: (Double) -> Double) -> Double {
        var (lo, hi) = (lo, hi)
        for _ in 0..<steps {
            let mid = (lo + hi) / 2
            if margin(mid) >= 0 { hi = mid } else { lo = mid }
        }
        return hi
    }

    /// The lightest opacity `α` in `(0, 1]` of a uniform scrim whose `margin(α)` (the weakest
    /// ratio with the scrim, less the target) is ≥ 0: the first of `1/16, 2/16, …, 1` that passes,
    /// refined by 10 bisections (to 1/16384) toward the last that did not. nil when even an
    /// opaque scrim (`α = 1`) misses. Calls `margin` at most 26 times.
    public static func lightestScrim(margin: (Double) -> Double) -> Double? {
        var previous = 0.0
        for i in 1...scrimSteps {
            let a = Double(i) / Double(scrimSteps)
            guard margin(a) >= 0 else { previous = a; continue }
            return bisect(previous, a, steps: scrimBisections, margin)
        }
        return nil
    }

    /// A fix must pass on what a browser paints, not only on the exact colors: pixels are 8-bit
    /// and Chromium interpolates a gradient in single precision, within one 8-bit step of the
    /// exact color per channel (docs/api/contrast.md, checked on 2,094 pixels); a scrim layered
    /// over it is composited onto those pixels and rounded again. A new user's pass, stop 39: a
    /// black scrim of 0.004 "passed" at 4.504:1 where Chromium painted 4.431:1 under it; searched
    /// with one step, Tailwind's gradient got 0.126, which Chromium 156 painted at 4.4935:1; with
    /// two, 0.131 and 4.5508:1 (six gradients, all passing as painted).
    public static let paintedStep = 1.0 / 255

    /// The WCAG ratio (WCAG 2.2 SC 1.4.3, `1...21`) of opaque `text` on `background` (gamma-
    /// encoded sRGB `0...1` each) with every background channel `steps` × `paintedStep` toward
    /// the text (up where the text is lighter, down where darker; kept in `0...1`): the weakest a
    /// browser may paint that color. A scrim is searched to pass by this ratio with `steps` 2.
    public static func paintedRatio(text: SIMD3<Double>, background: SIMD3<Double>, steps: Double) -> Double {
        let lt = WCAG.relativeLuminance(text), lb = WCAG.relativeLuminance(background)
        let step = (lt >= lb ? 1 : -1) * steps * paintedStep
        var shifted = background
        for k in 0..<3 { shifted[k] = Swift.min(Swift.max(background[k] + step, 0), 1) }
        return WCAG.contrastRatio(lt, WCAG.relativeLuminance(shifted))
    }

    /// `range` widened by one `paintedStep` of a gray at each end (its darkest luminance
    /// as painted one step darker, its lightest one step lighter), for the text-color fix: the
    /// gradient alone is painted, one rounding (six gradients' text colors passed in Chromium 156).
    public static func paintedRange(_ range: ClosedRange<Double>) -> ClosedRange<Double> {
        func gray(_ l: Double, _ step: Double) -> Double {
            // IEC 61966-2-1 encode, one step, decode.
            WCAG.decode(Swift.min(Swift.max(ColorSpaceTree.linearToSRGB(l) + step, 0), 1))
        }
        let lo = gray(range.lowerBound, -paintedStep), hi = gray(range.upperBound, paintedStep)
        return Swift.min(lo, hi)...Swift.max(lo, hi)
    }

    /// The WCAG background luminance range `Lmin...Lmax` (each `0...1`) of a gradient, from the
    /// weakest ratio of white text on it (`1.05 / (Lmax + 0.05)`) and of black text
    /// (`(Lmin + 0.05) / 0.05`), WCAG 2.2 SC 1.4.3.
    public static func luminanceRange(weakestWithWhite: Double, weakestWithBlack: Double) -> ClosedRange<Double> {
        let lmax = Swift.min(Swift.max(1.05 / weakestWithWhite - 0.05, 0), 1)
        let lmin = Swift.min(Swift.max(weakestWithBlack * 0.05 - 0.05, 0), lmax)
        return lmin...lmax
    }

    /// The weakest WCAG ratio of opaque text of relative luminance `text` (`0...1`) on every
    /// luminance of `backgrounds`, less `target`: ≥ 0 when it passes on all of them. Text whose
    /// luminance lies inside the range meets one of them (ratio 1).
    public static func wcagMargin(text: Double, backgrounds: ClosedRange<Double>, target: Double) -> Double {
        let ratio = text >= backgrounds.upperBound ? (text + 0.05) / (backgrounds.upperBound + 0.05)
            : text <= backgrounds.lowerBound ? (backgrounds.lowerBound + 0.05) / (text + 0.05) : 1
        return ratio - target
    }
}
