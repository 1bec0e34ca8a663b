import { describe, expect, it } from 'vitest';

import { ApiError } from '../../../lib/api';
import { checkImageFile, imageFilesOf, UPLOAD_FAILED, uploadErrorToast } from './image-files';

describe('image upload checks (spec §5)', () => {
  it('accepts images up to 5 MB', () => {
    expect(checkImageFile({ type: 'image/png', size: 5 * 1024 * 1024 })).toBeNull();
  });
  it('refuses other types and bigger files with the spec’s texts', () => {
    expect(checkImageFile({ type: 'text/plain', size: 10 })).toEqual({
      title: 'Invalid file type',
      description: 'Please select an image file (JPG, PNG, GIF, etc.)',
    });
    expect(checkImageFile({ type: 'image/jpeg', size: 5 * 1024 * 1024 + 1 })).toEqual({
      title: 'File too large',
      description: 'Please select an image smaller than 5MB',
    });
  });
  it('keeps only the images of a drop', () => {
    const files = [new File(['a'], 'a.png', { type: 'image/png' }), new File(['b'], 'b.txt', { type: 'text/plain' })];
    expect(imageFilesOf(files).map((f) => f.name)).toEqual(['a.png']);
  });
  it('maps server refusals to the spec’s toasts', () => {
    expect(uploadErrorToast(new ApiError(413, '{"message":"Please select an image smaller than 5MB"}')).title).toBe(
      'File too large',
    );
    expect(
      uploadErrorToast(new ApiError(400, '{"message":"Please select an image file (JPG, PNG, GIF, etc.)"}')).title,
    ).toBe('Invalid file type');
    expect(uploadErrorToast(new ApiError(500, 'oops'))).toEqual(UPLOAD_FAILED);
    expect(uploadErrorToast(new TypeError('Failed to fetch'))).toEqual({
      title: 'Upload failed',
      description: 'Failed to upload logo/image. Please try again.',
    });
  });
  it('uploads have no per-account quota: a 413 for the account’s quota shows the server’s message, not the 5 MB one', () => {
    const quota =
      'Your uploads would go over your 50 MB storage limit (49.8 MB used). Delete logos you no longer need from the Logo Library, or upload a smaller image.';
    expect(uploadErrorToast(new ApiError(413, JSON.stringify({ message: quota })))).toEqual({
      title: 'Upload failed',
      description: quota,
    });
    // Any other 413 (a proxy's, the request's size) is still the spec's size refusal.
    expect(uploadErrorToast(new ApiError(413, '<html>Request Entity Too Large</html>')).title).toBe('File too large');
    expect(uploadErrorToast(new ApiError(413, '{"message":"The request is too large"}')).title).toBe('File too large');
  });
});
