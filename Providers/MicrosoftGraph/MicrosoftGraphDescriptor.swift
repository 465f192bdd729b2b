import Foundation

/// The built-in Microsoft Graph provider descriptor (`microsoft.json`, compiled into this module).
public enum MicrosoftGraphDescriptor {
    /// The descriptor document, for `ProviderDescriptor.parse` (its URLs contain `{tenant}`).
    public static var builtInJSON: Data { Data(PackageResources.microsoft_json) }
}
