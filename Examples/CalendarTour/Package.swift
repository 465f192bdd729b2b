// swift-tools-version:6.1
import PackageDescription

// A program that uses calbridge's library products as another package would: by the repository's URL and a
// version. .ci/run builds it (.ci/build-examples, the URL mirrored to a tagged clone of the commit under
// test), so the public API cannot break without CI saying so.
let package = Package(
    name: "CalendarTour",
    dependencies: [.package(url: "https://github.com/calbridge/calbridge.git", from: "0.1.0")],
    targets: [
        .executableTarget(
            name: "calendar-tour",
            dependencies: [
                .product(name: "CalendarBridge", package: "calbridge"),
                .product(name: "GoogleCalendar", package: "calbridge"),
                .product(name: "MicrosoftGraph", package: "calbridge"),
                .product(name: "CalbridgeAccounts", package: "calbridge"),
                .product(name: "HTTP", package: "calbridge"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        )
    ]
)
