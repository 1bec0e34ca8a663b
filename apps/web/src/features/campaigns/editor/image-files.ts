import {
  IMAGE_TOO_LARGE_MESSAGE,
  IMAGE_TOO_LARGE_TITLE,
  INVALID_IMAGE_MESSAGE,
  INVALID_IMAGE_TITLE,
  isUploadQuotaMessage,
  MAX_IMAGE_BYTES,
} from '@sendwell/contract/uploads';

import { getApiErrorMessage, getApiErrorStatus } from '../../../lib/api';
import { toastError } from '../../../lib/toast-error';

export interface ToastText {
  title: string;
  description: string;
}

export const UPLOAD_FAILED: ToastText = {
  title: 'Upload failed',
  description: 'Failed to upload logo/image. Please try again.',
};

/** The spec §5 checks before an upload: an image/* type and at most 5 MB (the server checks the bytes again). */
export function checkImageFile(file: Pick<File, 'type' | 'size'>): ToastText | null {
  if (!file.type.startsWith('image/')) return { title: INVALID_IMAGE_TITLE, description: INVALID_IMAGE_MESSAGE };
  if (file.size > MAX_IMAGE_BYTES) return { title: IMAGE_TOO_LARGE_TITLE, description: IMAGE_TOO_LARGE_MESSAGE };
  return null;
}

/** The files of a drop that are images (spec §5: other files are ignored). */
export function imageFilesOf(files: Iterable<File>): File[] {
  return [...files].filter((file) => file.type.startsWith('image/'));
}

/**
 * The toast for a failed upload: the server's type or size refusal with the spec's titles; a 413 for
 * the account's upload quota with the server's message (how much is used, what to do); else 'Upload failed'.
 */
export function uploadErrorToast(error: unknown): ToastText {
  const status = getApiErrorStatus(error);
  const message = getApiErrorMessage(error);
  if (status === 413 && message && isUploadQuotaMessage(message))
    return { title: UPLOAD_FAILED.title, description: message };
  if (status === 413) return { title: IMAGE_TOO_LARGE_TITLE, description: IMAGE_TOO_LARGE_MESSAGE };
  if (status === 400 && message === INVALID_IMAGE_MESSAGE)
    return { title: INVALID_IMAGE_TITLE, description: INVALID_IMAGE_MESSAGE };
  return UPLOAD_FAILED;
}

/** Shows a failed upload with the texts of `uploadErrorToast`; a 401 takes the Unauthorized path instead. */
export function toastUploadError(error: unknown): void {
  const { title, description } = uploadErrorToast(error);
  toastError(error, description, { title, serverMessage: 'never' });
}
