import CoreLocation
import ParleyChatUI

/// The share menu's location item: asks for permission (`NSLocationWhenInUseUsageDescription`) and takes the first
/// fix of `CLLocationUpdate.liveUpdates()`; `nil` when the user refuses or no fix comes.
enum CurrentLocation {
    @MainActor static func once() async -> Location? {
        let manager = CLLocationManager()
        if manager.authorizationStatus == .notDetermined { manager.requestWhenInUseAuthorization() }
        do {
            for try await update in CLLocationUpdate.liveUpdates() {
                if let location = update.location {
                    return Location(
                        latitude: location.coordinate.latitude, longitude: location.coordinate.longitude)
                }
            }
        } catch {
            return nil
        }
        return nil
    }
}
