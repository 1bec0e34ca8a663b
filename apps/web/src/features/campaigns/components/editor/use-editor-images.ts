import * as React from 'react';
import type { CurrentUser } from '@sendwell/contract/auth';
import type { UploadedImage } from '@sendwell/contract/uploads';

import { isUnauthorizedError } from '@/lib/api';
import { toast } from '@/lib/use-toast';
import { useUploadImage } from '../../api/use-editor-data';
import { checkImageFile, imageFilesOf, toastUploadError, UPLOAD_FAILED } from '../../editor/image-files';
import type { CampaignDraftState } from './use-campaign-draft';

/** Pictures into the email: files dropped on the canvas, a file chosen for an image block, a logo from the library. */
export function useEditorImages(draft: CampaignDraftState, user: CurrentUser) {
  const uploadImage = useUploadImage();
  const [uploadingCount, setUploadingCount] = React.useState(0);

  /**
   * Image files dropped on the canvas: each becomes an image block where they were dropped (before
   * the block `beforeId`, else at the end); failures are skipped and reported once.
   */
  const onFilesDropped = async (files: File[], beforeId: string | null = null) => {
    const images = imageFilesOf(files);
    if (images.length === 0) {
      if (files.length > 0)
        toast({
          title: 'Invalid file type',
          description: 'Please select an image file (JPG, PNG, GIF, etc.)',
          variant: 'destructive',
        });
      return;
    }
    const accepted = images.filter((file) => {
      const problem = checkImageFile(file);
      if (problem) toast({ ...problem, variant: 'destructive' });
      return problem === null;
    });
    let failed = 0;
    setUploadingCount((n) => n + accepted.length);
    for (const file of accepted) {
      try {
        const uploaded = await uploadImage.mutateAsync(file);
        draft.addImage(uploaded.url, altFromFileName(file.name), beforeId);
      } catch (error) {
        // Spec §5: a failed upload is logged and that file is skipped; the others still go in.
        console.error('Image upload failed', file.name, error);
        if (isUnauthorizedError(error)) return;
        failed += 1;
      } finally {
        setUploadingCount((n) => n - 1);
      }
    }
    if (failed > 0) toast({ ...UPLOAD_FAILED, variant: 'destructive' });
  };

  /** An image chosen in the Edit Component panel replaces that block's picture. */
  const uploadForBlock = (blockId: string, file: File) => {
    const problem = checkImageFile(file);
    if (problem) {
      toast({ ...problem, variant: 'destructive' });
      return;
    }
    uploadImage.mutate(file, {
      onSuccess: (uploaded) => draft.setImageSource(blockId, uploaded.url),
      onError: toastUploadError,
    });
  };

  return {
    /** An upload for an image block is under way. */
    uploading: uploadImage.isPending,
    /** Dropped files still uploading (the canvas shows a placeholder for each). */
    uploadingCount,
    onFilesDropped,
    uploadForBlock,
    insertLogo: (logo: UploadedImage) => draft.addImage(logo.url, user.company ? `${user.company} logo` : 'Logo'),
  };
}

/** 'spring-banner_v2.png' → 'spring banner v2' (a starting alt text the user can improve). */
function altFromFileName(name: string): string {
  return name
    .replace(/\.[^.]+$/, '')
    .replace(/[-_]+/g, ' ')
    .trim()
    .slice(0, 300);
}
