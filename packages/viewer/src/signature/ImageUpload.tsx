import { useEffect, useId, useRef, useState, type DragEvent } from 'react';
import { DataUrlImage } from './DataUrlImage.js';
import { ACCEPTED_IMAGE_TYPES, inkCanvasFromImageFile } from './image-ink.js';
import { trimInk } from './trim-ink.js';

export interface ImageUploadProps {
  labels: { uploadHint: string; uploadButton: string; invalidImage: string };
  /** The trimmed PNG of the chosen image's ink, or `null` while there is none (or the file was not usable). */
  onChange(png: string | null): void;
}

/**
 * A file input and a drop area for an image of a signature: the image is scaled down, its paper made transparent
 * and its ink trimmed; the result is previewed. A file that is not a usable image shows an alert.
 * @example
 * <ImageUpload labels={labels} onChange={setUploadedPng} />
 */
export function ImageUpload({ labels, onChange }: ImageUploadProps) {
  const inputId = useId();
  const hintId = useId();
  const [png, setPng] = useState<string | null>(null);
  const [invalid, setInvalid] = useState(false);
  const [dragging, setDragging] = useState(false);
  // Each file gets a number; a result that arrives after a newer file was chosen, or after unmount, is dropped.
  const latest = useRef(0);
  useEffect(
    () => () => {
      latest.current += 1;
    },
    [],
  );

  const accept = async (file: File | undefined) => {
    if (!file) return;
    const request = ++latest.current;
    const result = await inkCanvasFromImageFile(file);
    if (request !== latest.current) return;
    const trimmed = 'canvas' in result ? trimInk(result.canvas) : null;
    setPng(trimmed);
    setInvalid(trimmed === null);
    onChange(trimmed);
  };

  const dragOver = (event: DragEvent) => {
    if (!event.dataTransfer.types.includes('Files')) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    setDragging(true);
  };

  const drop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    void accept(event.dataTransfer.files[0]);
  };

  return (
    <div className="signet-sig-upload">
      <div
        className="signet-sig-drop"
        data-dragging={dragging || undefined}
        onDragEnter={dragOver}
        onDragOver={dragOver}
        onDragLeave={(event) => {
          // Leaving for a child of the area is not leaving the area.
          if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
        }}
        onDrop={drop}
      >
        {png ? (
          <DataUrlImage className="signet-sig-upload-preview" src={png} />
        ) : (
          <p id={hintId} className="signet-sig-hint">
            {labels.uploadHint}
          </p>
        )}
        {/* The input stays in the tab order (visually hidden, not display:none); its label is the visible button. */}
        <input
          id={inputId}
          className="signet-visually-hidden signet-sig-file"
          type="file"
          accept={ACCEPTED_IMAGE_TYPES.join(',')}
          aria-describedby={png ? undefined : hintId}
          onChange={(event) => {
            const input = event.currentTarget;
            void accept(input.files?.[0]).finally(() => {
              // Lets the same file be chosen again after it was refused or replaced.
              input.value = '';
            });
          }}
        />
        <label className="signet-sig-button" htmlFor={inputId}>
          {labels.uploadButton}
        </label>
      </div>
      {invalid && (
        <p className="signet-sig-error" role="alert">
          {labels.invalidImage}
        </p>
      )}
    </div>
  );
}
