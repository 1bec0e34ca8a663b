import { z } from 'zod';

export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const INVALID_IMAGE_TITLE = 'Invalid file type';
export const INVALID_IMAGE_MESSAGE = 'Please select an image file (JPG, PNG, GIF, etc.)';
export const IMAGE_TOO_LARGE_TITLE = 'File too large';
export const IMAGE_TOO_LARGE_MESSAGE = 'Please select an image smaller than 5MB';

/** POST /api/upload/image (multipart field `image`) and POST /api/logos (field `image`). */
export const uploadedImageSchema = z.object({
  id: z.number().int(),
  url: z.string(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  bytes: z.number().int(),
  createdAt: z.string(),
});
export type UploadedImage = z.infer<typeof uploadedImageSchema>;
/** GET /api/logos: the Logo Library. */
export const logoListSchema = z.array(uploadedImageSchema);

/** GET /uploads/:name: a stored image by its random name. */
export const storedImageParamsSchema = z.object({ name: z.string() });
