import Foundation

/// Reading values out of `JSONSerialization` results, where `true` and `1` are both `NSNumber`s (and both
/// cast to `Bool` and `Int`): a JSON boolean is the number whose Objective-C type is `c`.
enum GraphJSON {
    static func isBool(_ value: Any) -> Bool {
        guard let number = value as? NSNumber else { return false }
        return String(cString: number.objCType) == "c"
    }

    static func bool(_ value: Any) -> Bool? {
        isBool(value) ? (value as? NSNumber)?.boolValue : nil
    }

    /// An integral JSON number (not a boolean) in Int32 range.
    static func int(_ value: Any) -> Int? {
        guard let number = value as? NSNumber, !isBool(value) else { return nil }
        let double = number.doubleValue
        guard double == double.rounded(), abs(double) <= Double(Int32.max) else { return nil }
        return Int(double)
    }
}
