import { z } from 'zod';

export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const INVALID_IMAGE_TITLE = 'Invalid file type';
export const INVALID_IMAGE_MESSAGE = 'Please select an image file (JPG, PNG, GIF, etc.)';
export const IMAGE_TOO_LARGE_TITLE = 'File too large';
export const IMAGE_TOO_LARGE_MESSAGE = 'Please select an image smaller than 5MB';

const UPLOAD_QUOTA_START = 'Your uploads would go over your ';
const megabytes = (bytes: number) => `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;

/** The 413 answer to an upload that does not fit in what is left of the account's quota (UPLOAD_QUOTA_MB). */
export function uploadQuotaMessage(usedBytes: number, quotaBytes: number): string {
  return (
    `${UPLOAD_QUOTA_START}${megabytes(quotaBytes)} storage limit (${megabytes(usedBytes)} used). ` +
    'Delete logos you no longer need from the Logo Library, or upload a smaller image.'
  );
}

/** Whether a 413's message is the account quota's (shown as it is) rather than the 5 MB limit's. */
export function isUploadQuotaMessage(message: string | undefined): boolean {
  return message?.startsWith(UPLOAD_QUOTA_START) ?? false;
}

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
