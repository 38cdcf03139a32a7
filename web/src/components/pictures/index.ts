// Pictures an author keeps (docs/decisions/0023-pictures-on-the-device.md): shown from the device,
// chosen and cropped in a form. The crop dialog and the image pipeline load on first use.
export { PictureImage, type PictureImageProps } from './PictureImage';
export { PictureField, type PictureFieldProps } from './PictureField';
export { usePictureSource, usePictureUploadState, pictureFetcherFor, type PictureVariant } from './pictureSource';
export { PICTURE_SHAPES, type PictureShape } from './model/crop';
