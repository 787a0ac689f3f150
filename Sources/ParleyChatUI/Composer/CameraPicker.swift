#if canImport(SwiftUI) && canImport(UIKit)
    import SwiftUI
    import UIKit
    import ParleyUI
    import Foundation
    import UniformTypeIdentifiers

    /// The share menu's camera (`camera`): `UIImagePickerController` with the camera as its source, taking photos,
    /// videos or both. It hands back a JPEG or the movie's data with a file name and MIME type, or `nil` when the user
    /// cancels or the device has no camera.
    struct CameraPicker: UIViewControllerRepresentable {
        let kinds: MediaKinds
        let finish: @MainActor (Data?, String, String) -> Void

        func makeUIViewController(context: Context) -> UIImagePickerController {
            let picker = UIImagePickerController()
            if UIImagePickerController.isSourceTypeAvailable(.camera) { picker.sourceType = .camera }
            var types: [String] = []
            if kinds.contains(.images) { types.append(UTType.image.identifier) }
            if kinds.contains(.videos) { types.append(UTType.movie.identifier) }
            picker.mediaTypes = types
            picker.delegate = context.coordinator
            return picker
        }

        func updateUIViewController(_ picker: UIImagePickerController, context: Context) {}

        func makeCoordinator() -> Coordinator {
            Coordinator(finish: finish)
        }

        /// The picker's delegate.
        @MainActor
        final class Coordinator: NSObject, UIImagePickerControllerDelegate, UINavigationControllerDelegate {
            let finish: @MainActor (Data?, String, String) -> Void

            init(finish: @escaping @MainActor (Data?, String, String) -> Void) {
                self.finish = finish
            }

            func imagePickerController(
                _ picker: UIImagePickerController,
                didFinishPickingMediaWithInfo info: [UIImagePickerController.InfoKey: Any]
            ) {
                if let movie = info[.mediaURL] as? URL, let data = try? Data(contentsOf: movie) {
                    let type = UTType(filenameExtension: movie.pathExtension)
                    finish(data, movie.lastPathComponent, type?.preferredMIMEType ?? "video/quicktime")
                } else if let image = info[.originalImage] as? UIImage,
                    let data = image.jpegData(compressionQuality: 0.8)
                {
                    finish(data, "photo.jpeg", "image/jpeg")
                } else {
                    finish(nil, "", "")
                }
            }

            func imagePickerControllerDidCancel(_ picker: UIImagePickerController) {
                finish(nil, "", "")
            }
        }
    }
#endif
