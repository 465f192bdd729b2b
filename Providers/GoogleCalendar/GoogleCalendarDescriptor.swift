import Foundation

/// The built-in Google Calendar provider descriptor (`google.json`, compiled into this module).
public enum GoogleCalendarDescriptor {
    /// The descriptor document, for `ProviderDescriptor.parse`.
    public static var builtInJSON: Data { Data(PackageResources.google_json) }
}
