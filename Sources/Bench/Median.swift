extension Array where Element == Double {
    /// The middle value, or the mean of the two middle ones for an even count; 0 for none.
    var median: Double {
        let sorted = self.sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
